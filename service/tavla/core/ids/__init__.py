"""Position and match identifiers: GNU Backgammon Position ID, Match ID, GNUBG ID, XGID."""
