# serve on an address that is not this machine's (192.0.2.1 is reserved for documentation)
grail serve rules/tamoul.rules --bind 192.0.2.1 --port 0
