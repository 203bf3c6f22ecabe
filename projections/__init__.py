"""vistlog's read side: pure folds from checked events to the sheet, settlement, audit, replay and drawings."""
