"""The battle log: the one way events enter it, and what is derived from it.

``store`` (with ``checks`` and ``cache``) is the event store, ``http`` the
same append over HTTP; ``projections`` folds the log into state and outcomes
(``replays`` queues that); ``chain`` and ``dice_commit`` let anyone verify a
log; ``tail`` is the log's tail the battle page reads. docs/append.md gives
the design, docs/verify.md the verification. This package imports nothing,
so the migrations can import ``chain`` and ``dice_commit``.
"""
