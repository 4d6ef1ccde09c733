# fmt on a file with a bidi override
grail fmt --check tests/hostile/bidi_override.rules
