"""Game availability: the operators' table-status notifications (queued with the event,
delivered by :mod:`service.availability.notifier`). The log itself is the projection
:mod:`projections.availability`."""
