"""The federation's answer to what scoring announces (scoring.signals)."""
