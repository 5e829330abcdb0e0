"""The table service (``poker51 serve``): the heads-up table and the five-seat tables in a browser.

Layer 9: it drives the engines (``play``, ``multi``, later ``rulebook``) and the exported tables
(``policies``) and adds no rule of its own.  ``room`` is the contract every room keeps: rooms
are synchronous and free of I/O, the host gives them the time and persists what they return.
"""
