# --shard auto outside a scheduler
rulecheck rules/tamoul.rules --games 2 --shard auto
