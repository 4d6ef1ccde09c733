# fmt of an endless file
grail fmt --check /dev/zero
