# a directory given as a rules file
grail check rules
