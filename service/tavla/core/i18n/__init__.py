"""Player-facing text: Turkish names (R26) and the message catalogues in English and Turkish."""
