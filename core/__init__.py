"""Rules: what may happen. The decider interface, the registry, seeded dice, the rule
index, matches in memory and against the store, transcripts and audits."""
