# an option value beyond i32
grail sim rules/tamoul.rules --games 1 --set target=99999999999
