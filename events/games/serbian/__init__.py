"""Serbian preferans: its state machine (:mod:`.game`), a deal's phases and contracts (:mod:`.deal`) and its
arithmetic of the paper (:mod:`.score`: bula, soups, refe).
"""

from .game import VARIANT, SerbianGame
from .deal import SerbianDeal
from .score import SCORING

__all__ = ["VARIANT", "SerbianGame", "SerbianDeal", "SCORING"]
