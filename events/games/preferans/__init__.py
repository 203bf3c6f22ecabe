"""Russian preferans (Сочинка, Ленинградка, Ростовская, классика): its state machine (:mod:`.game`: the
auction, the talon, the whists, raspasy) and its arithmetic of the пулька (:mod:`.score`: pool, mountain, whists).
"""

from .game import VARIANT, PreferansDeal, PreferansGame
from .score import SCORING

__all__ = ["VARIANT", "PreferansDeal", "PreferansGame", "SCORING"]
