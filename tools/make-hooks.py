"""Write events/hooks.py, the codec's fast structure hooks as source: ``python tools/make-hooks.py > events/hooks.py``.

Run it after changing an event class or the codec's fast path; a test checks the file is what this
prints (and the codec never uses a hook whose fingerprint is stale).
"""

from __future__ import annotations

import os
import sys

os.environ["VISTLOG_BUILD"] = "pure"  # written from the source, whichever build is installed
from vistlog.events.codec import hooks_module

if __name__ == "__main__":
    sys.stdout.write(hooks_module())
