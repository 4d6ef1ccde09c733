# --shard with a huge count
rulecheck rules/tamoul.rules --games 2 --shard 1/4000000000 --out $TMP/x.part
