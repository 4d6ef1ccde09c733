# a file name holding a terminal escape: shown escaped
grail check no/such/]0;pwned.rules
