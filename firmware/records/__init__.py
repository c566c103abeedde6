"""What the table keeps: the flight recorder, its audit, the score ledger."""
