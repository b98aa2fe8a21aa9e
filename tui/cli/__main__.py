"""``python -m tui.cli``: the ``memvault`` command line. (git runs the merge driver as the
installed memvault-merge-driver program, never this way.)"""

import sys

from tui.cli import main

sys.exit(main())
