"""Reports for regulators: RTP monitoring against the simulator's figures, round exports."""
