"""Event-sourced game backend for Russian Poker and Oasis Poker."""
