# --shard 0/0
rulecheck rules/tamoul.rules --games 2 --shard 0/0
