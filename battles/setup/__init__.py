"""A battle's set-up: scheduling it, seating its participants with their rosters, and mustering
them onto the table (``muster``), with the set-up's reads (``selectors``), its API (``api``) and
its pages (``views``)."""
