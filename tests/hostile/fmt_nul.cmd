# fmt on a file with NUL bytes: refused with the place, nothing printed raw
grail fmt --check tests/hostile/nul_bytes.rules
