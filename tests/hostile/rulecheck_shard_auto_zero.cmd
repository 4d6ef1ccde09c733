# --shard auto/0
rulecheck rules/tamoul.rules --games 2 --shard auto/0
