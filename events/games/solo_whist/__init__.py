"""Solo Whist (вист-соло): its state machine (:mod:`.game`: four players, the turned card, props, solos,
misères, abundances) and its arithmetic (:mod:`.score`: points, every deal adding up to 0).
"""

from .game import VARIANT, SoloWhistDeal, SoloWhistGame
from .score import SCORING

__all__ = ["VARIANT", "SoloWhistDeal", "SoloWhistGame", "SCORING"]
