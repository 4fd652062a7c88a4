#!/usr/bin/python3
"""Summarizes snap.sh output: per host, TCP retransmissions and timeouts; qdisc drops."""
import sys
keys = ["TCPTimeouts", "TCPLossProbes", "TCPFastRetrans", "TCPSpuriousRTOs", "TCPSlowStartRetrans", "TCPLostRetransmit", "TCPOFOQueue", "TCPDSACKRecv", "TCPOrigDataSent"]
hdr = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) > 2 and p[1] == "Tcp":
        # Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts
        v = p[3:]
        print(p[0], "OutSegs", v[10], "RetransSegs", v[11], end=" ")
    elif len(p) > 2 and p[1] == "H":
        hdr[p[0]] = p[3:]
    elif len(p) > 2 and p[1] == "V":
        d = dict(zip(hdr[p[0]], p[3:]))
        print(" ".join(f"{k} {d[k]}" for k in keys))
    elif "dropped" in line and not line.startswith("sw qdisc"):
        if not line.endswith(" 0\n"):
            print("  ", line.strip())
