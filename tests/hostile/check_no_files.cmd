# check with no file at all: an error, not a silent success (exit 0 before)
grail check
