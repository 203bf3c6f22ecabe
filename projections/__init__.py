"""vistlog's read side: pure folds from checked events to the sheet, settlement, audit, replay and drawings.

It is imported as ``vistlog.projections`` only: imported as ``projections`` (from the repository's root)
it would be a second copy whose classes are not vistlog's, so that is refused at once.
"""

if __name__ != "vistlog.projections":
    raise ImportError(f"import vistlog.projections, not {__name__} "
                      "(the folder projections/ is installed as vistlog.projections)")
