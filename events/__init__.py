"""vistlog's write side: events, cards, rules, the codec, the log and the game state machine."""
