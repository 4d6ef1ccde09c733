# repeated --vary multiplies the columns (7^8 = 5.7 million)
rulecheck rules/tamoul.rules --games 1 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7 --vary target=1,2,3,4,5,6,7
