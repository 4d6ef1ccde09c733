# a rules file that does not exist
grail sim no/such/file.rules --games 1
