# TCP ping-pong of SIZE bytes between two emulated hosts (ip netns exec), TCP_NODELAY as Gloo sets it, with a gap
# between round trips; round-trip percentiles. Usage: tcppp.py server PORT SIZE N | client ADDR PORT SIZE N GAP
import socket, sys, time
def recvn(s, n):
    b = bytearray()
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c: raise SystemExit("closed")
        b += c
    return b
if sys.argv[1] == "server":
    port, size, n = map(int, sys.argv[2:5])
    l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); l.bind(("0.0.0.0", port)); l.listen(1)
    s, _ = l.accept(); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for _ in range(n):
        s.sendall(recvn(s, size))
else:
    addr, port, size, n, gap = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
    s = socket.create_connection((addr, port)); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    msg = b"x" * size; ts = []
    for _ in range(n):
        if gap: time.sleep(gap)
        t0 = time.perf_counter(); s.sendall(msg); recvn(s, size); ts.append(time.perf_counter() - t0)
    ts.sort()
    print(f"size {size} gap {gap*1e3:.1f} ms: rtt us p10 {ts[n//10]*1e6:.0f} p50 {ts[n//2]*1e6:.0f} p90 {ts[9*n//10]*1e6:.0f} p99 {ts[99*n//100]*1e6:.0f} max {ts[-1]*1e6:.0f}; > 1 ms: {sum(t > 1e-3 for t in ts)} of {n}")
