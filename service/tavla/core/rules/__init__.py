"""The board rules: positions, the variants, move generation, legality, steps, notation, scoring (R1-R17)."""
