"""Game availability: the operators' table-status notifications (queued with the event,
delivered by :mod:`service.notifier`). The log itself is the projection
:mod:`projections.availability`."""
