"""Match play around the board: rulesets, score, cube, clocks, dice, resignations (R3, R18-R26)."""
