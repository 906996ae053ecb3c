"""A battle's table: the battle page and its live updates (``views``), the recording panel
(``recording``, Flames of War's quick forms in ``recording_fow``; the event forms in ``forms``,
their words in ``labels``, the pieces they offer in ``choices``), the state as the page shows it
(``board``), the log told as sentences (``report``, Flames of War's in ``report_fow``; both name
the pieces through ``namer``), and each side's pre-battle command roll (``command``, its API in
``api_command``)."""
