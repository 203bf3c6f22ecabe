"""vistlog's write side: events, cards, rules, the codec, the log and the game state machine.

It is imported as ``vistlog.events`` only: imported as ``events`` (from the repository's root) it would
be a second copy whose classes are not vistlog's, so that is refused at once.
"""

if __name__ != "vistlog.events":
    raise ImportError(f"import vistlog.events, not {__name__} (the folder events/ is installed as vistlog.events)")
