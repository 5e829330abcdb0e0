"""Logging for workflow scripts and long commands: everything goes to ``logs/``.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> with logged(os.path.join(d, "x.log")) as log:
...     log.info("hello")
>>> "hello" in open(os.path.join(d, "x.log")).read()
True
"""

from __future__ import annotations

import contextlib
import logging
import time
from pathlib import Path


@contextlib.contextmanager
def logged(path: str | Path, name: str = "poker51"):
    """Send the ``poker51`` logger, warnings and stderr (tqdm) to ``path`` for the block.

    An exception is logged with its traceback and re-raised, so the workflow fails
    and the log says why.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    logger = logging.getLogger(name)
    handler = logging.FileHandler(path, mode="w")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logging.captureWarnings(True)
    t0 = time.perf_counter()
    with open(path, "a") as stream, contextlib.redirect_stderr(stream):
        try:
            yield logger
        except BaseException:
            logger.exception("failed")
            raise
        finally:
            logger.info("done in %.2f s", time.perf_counter() - t0)
            logger.removeHandler(handler)
            handler.close()
