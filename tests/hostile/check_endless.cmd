# an endless rules file (/dev/zero) must not take all memory
grail check /dev/zero
