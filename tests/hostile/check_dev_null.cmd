# an empty special file
grail check /dev/null
