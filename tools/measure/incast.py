"""measure.py incast (docs/measure.md): N clients to and from one hub (rank 0), for flow fairness and the
coupling of the two directions; its pure parts are unit-tested (tests/measure/test_incast.py)."""

import functools
import itertools
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan  # noqa: E402  (the kit's pure parts, next to this file)
from kit import (check_out, csv_meta, CsvOut, dist, gather_infos, local_info, MeasureError, now, rate_label,
                 read_text, size_arg, torch, write_sidecar)  # noqa: E402

def staggered_clients(n, established=0, late=0):
    """staggered-*: the clients of the established flows (1..E) and of the late ones (N-L+1..N); 0 means all N."""
    e, lt = min(established or n, n), min(late or n, n)
    return list(range(1, e + 1)), list(range(n - lt + 1, n + 1))


# Column layout of one repeat of each pattern, for N clients: (role, client rank) of each flow timed.
SIZES_DEFAULT = "16MiB,64MiB"  # bytes per flow of each pattern unless --sizes or --flow-tensors says otherwise


def incast_flows(pattern, n, established=0, late=0):
    """The flows one repeat of `pattern` times with N = n clients, as (role, client rank): `in` client -> hub, `out`
    hub -> client, `reverse` hub -> client n while clients 1..n-1 send to the hub, `alone` the same flow alone;
    incast-half: clients 1..n-m send to the hub while the hub sends to clients n-m+1..n, m = n // 2;
    incast-duplex: every client sends to the hub while the hub sends to every client (n flows each way);
    duplex-late-in: the hub's flows to every client alone (`alone-out`), then every client's flow into the hub
    started late (`late-in`) beside the hub's established flows out of 2 x S bytes (`established-out`, timed from
    their start); duplex-late-out: the mirror (`alone-in`, `late-out`, `established-in`);
    outcast-mixed: the hub sends to clients 1..n-1 while client n sends to it (`reverse-in`), then that flow
    alone (`alone-in`); late-in and late-out: client 1's flow alone (`alone-in`, `alone-out`), then the same flow
    (`first-...`) joined by client c's (`late-...`) c - 1 delays after it starts; staggered-in (-out): E established
    flows out (in) and L flows in (out) started late, each first alone (`alone-in/out`), then together
    (`late-in/out`, `established-out/in`; clients from staggered_clients)."""
    if pattern in STAGGERED + DUPLEX_LATE:
        est, lt = staggered_clients(n, established, late)
        way, other = ("in", "out") if pattern.endswith("-in") else ("out", "in")
        late_alone = [(f"alone-{way}", c) for c in lt] if pattern in STAGGERED else []
        return (late_alone + [(f"alone-{other}", c) for c in est] + [(f"late-{way}", c) for c in lt]
                + [(f"established-{other}", c) for c in est])
    if pattern == "incast-in":
        return [("in", c) for c in range(1, n + 1)]
    if pattern == "incast-out":
        return [("out", c) for c in range(1, n + 1)]
    if pattern == "incast-half":
        m = n // 2
        return [("in", c) for c in range(1, n - m + 1)] + [("out", c) for c in range(n - m + 1, n + 1)]
    if pattern == "incast-duplex":
        return [("in", c) for c in range(1, n + 1)] + [("out", c) for c in range(1, n + 1)]
    if pattern == "outcast-mixed":
        return [("out", c) for c in range(1, n)] + [("reverse-in", n), ("alone-in", n)]
    if pattern in ("late-in", "late-out"):
        way = pattern[5:]
        return [(f"alone-{way}", 1), (f"first-{way}", 1)] + [(f"late-{way}", c) for c in range(2, n + 1)]
    return [("in", c) for c in range(1, n)] + [("reverse", n), ("alone", n)]


STAGGERED = ("staggered-in", "staggered-out")
DUPLEX_LATE = ("duplex-late-in", "duplex-late-out")  # staggered with N flows each way, no late flows alone
# The roles of flows that the hub receives (and times).
INTO_HUB = ("in", "alone-in", "first-in", "late-in", "reverse-in", "established-in")


def flow_stats(repeats):
    """`repeats`: per measured repeat, the completion times (s) of flows that ran at the same time. Returns every
    time (flattened: the CSV row's samples), each repeat's spread (its slowest flow's time / its fastest's: 1.0
    when the flows share fairly and finish together), and the median and maximum of the spreads."""
    every = [t for r in repeats for t in r]
    spreads = [max(r) / min(r) for r in repeats if r and min(r) > 0]
    return {"times": every, "spreads": spreads, "spread_median": plan.median(spreads),
            "spread_max": max(spreads) if spreads else float("nan")}


def paired_ratios(num, den):
    """Per repeat, num / den (incast-mixed: the reverse flow's time over its alone time of the same repeat)."""
    if len(num) != len(den):
        raise ValueError(f"{len(num)} numerators for {len(den)} denominators")
    return [a / b for a, b in zip(num, den) if b > 0]


def established_share(first_s, alone_s, fraction):
    """late-* with 2 clients: the share of the link that the first flow kept while the late one ran beside it.
    The first flow ran alone for fraction x alone_s (moving that fraction of its bytes), then at share a until it
    ended at first_s: first_s = f T + (1 - f) T / a. 0.5 is fair max-min sharing (first_s = (2 - f) T), 1.0 first
    come first served (first_s = T). None when the first flow ended before the late one started."""
    if alone_s <= 0 or first_s <= fraction * alone_s:
        return None
    return (1 - fraction) * alone_s / (first_s - fraction * alone_s)


def wait_all(works):
    for work in works:
        work.wait()


def completion_times(works, t0):
    """Each work's completion time from t0. ProcessGroupGloo's send and recv works (torch 1.13) say
    is_completed() only once wait() has returned, so polling cannot see them end: one thread per work waits
    (wait releases the GIL) and stamps its own end."""
    done, errors = [None] * len(works), []

    def waiter(i):
        try:
            works[i].wait()
            done[i] = now() - t0
        except RuntimeError as e:  # a Gloo timeout or a peer's failure
            errors.append(e)
    threads = [threading.Thread(target=waiter, args=(i,), daemon=True) for i in range(len(works))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    return done


def incast_in(rank, n, bufs, group, message_elements=0):
    """Clients 1..n isend to the hub at once; the hub times each flow from the end of the barrier. Each flow goes as
    messages of `message_elements` floats back to back (0: one message), as a worker pushes its gradients."""
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        return flows_received([flow_recv(bufs["in"][c - 1], c, message_elements) for c in range(1, n + 1)], t0)
    wait_all(flow_send(bufs["own"], 0, message_elements))
    return []


def incast_out(rank, n, bufs, group, message_elements=0, hub_recvs=False, early_recvs=False):
    """The hub isends to clients 1..n at once (every message of client 1's flow, then client 2's, ...: as a PS
    releases its shard to each worker in turn); each client times its flow from the end of the barrier. Each flow
    goes as messages of `message_elements` floats back to back (0: one message).

    hub_recvs (--hub-recvs): before its sends to a client, the hub posts one receive from it per message of the flow,
    as a PS posts the receives of a worker's gradients before it sends that worker its parameters (train.py's
    release), so that client c + 1's first message leaves after client c's sends and client c + 1's receives were
    posted, not after client c's sends alone. Each client answers them with one-float messages after a second
    barrier, once every flow is in, so that the answers do not load the hub while it sends.

    early_recvs (--early-recvs): each client posts its flow's receives before the first barrier, as a training worker
    posts its parameters' receives when its step starts, long before the PS releases them. Gloo's TCP transport sends
    a message only once the receiver's notice that its receive is posted has arrived, so with the receives posted
    after the barrier each flow waits for its client's posting, which the clients, sharing the cores, do at
    different times."""
    early = flow_recv(bufs["own"], 0, message_elements) if rank and early_recvs else None
    dist.barrier(group=group)
    t0 = now()
    messages = len(split_bounds((bufs["out"] if rank == 0 else bufs["own"]).numel(), message_elements))
    if rank == 0:
        works, answers = [], []
        for c in range(1, n + 1):
            if hub_recvs:
                received = torch.zeros(messages, dtype=torch.float32)
                answers += [dist.irecv(received[i:i + 1], src=c) for i in range(messages)]
            works += flow_send(bufs["out"], c, message_elements)
        wait_all(works)
        if hub_recvs:
            dist.barrier(group=group)
            wait_all(answers)
        return []
    wait_all(early if early is not None else flow_recv(bufs["own"], 0, message_elements))
    took = now() - t0
    if hub_recvs:
        dist.barrier(group=group)
        answer = torch.zeros(messages, dtype=torch.float32)  # one float per message
        wait_all([dist.isend(answer[i:i + 1], dst=0) for i in range(messages)])
    return [took]


def split_bounds(elements, message_elements):
    """[start, end) of each message of a buffer of `elements` sent as messages of `message_elements` (0: one; a
    list: messages of those sizes in turn, as a PS sends a workload's tensors, --flow-tensors, and the rest, if any,
    as one more)."""
    if isinstance(message_elements, (list, tuple)):
        ends = list(itertools.accumulate(m for m in message_elements if m > 0))
        ends = [e for e in ends if e < elements] + [elements]
        return list(zip([0] + ends[:-1], ends))
    step = message_elements if 0 < message_elements < elements else elements
    return [(i, min(i + step, elements)) for i in range(0, elements, step)]


def flow_send(buf, dst, message_elements):
    """One flow: `buf` as back-to-back messages of `message_elements` floats (0: one message), every isend at once,
    as a PS sends a shard of tensors; one work per message, in order."""
    return [dist.isend(buf[a:b], dst=dst) for a, b in split_bounds(buf.numel(), message_elements)]


def flow_recv(buf, src, message_elements):
    """flow_send's receives, all posted at once (as a training step posts its tensors'); they complete in order."""
    return [dist.irecv(buf[a:b], src=src) for a, b in split_bounds(buf.numel(), message_elements)]


class PacedSend:
    """`count` x `buf` as messages of `message_elements` floats to each rank of `dsts`, message i posted to every one
    of them i x `gap_s` after the first by a thread of its own, so that the caller goes on to post its receives: a
    client's flows into the hub (dsts (0,): as a worker's pushes follow its backward) or the hub's flows out
    (--hub-message-gap: as a PS releases each tensor to every worker once it is updated). wait() waits for every
    message."""

    def __init__(self, buf, message_elements, gap_s, count=1, dsts=(0,)):
        self.works, self.errors = [], []
        bounds = split_bounds(buf.numel(), message_elements) * count

        def post():
            start = now()
            try:
                for i, (a, b) in enumerate(bounds):
                    sleep_until(start + i * gap_s)
                    for dst in dsts:
                        self.works.append(dist.isend(buf[a:b], dst=dst))
            except RuntimeError as e:  # a Gloo failure, raised in the caller by wait()
                self.errors.append(e)
        self.thread = threading.Thread(target=post, daemon=True)
        self.thread.start()

    def wait(self):
        self.thread.join()
        if self.errors:
            raise self.errors[0]
        wait_all(self.works)


def send_flows(buf, dsts, message_elements, gap_s=0.0, count=1):
    """`count` flows of `buf` to each rank of `dsts`, back to back (gap_s 0: every isend at once, rank by rank) or
    paced (PacedSend to all of them): the hub's flows out (--hub-message-gap) and a client's into the hub
    (push_to_hub, --message-gap). Works to wait."""
    if gap_s > 0:
        return [PacedSend(buf, message_elements, gap_s, count, dsts=list(dsts))]
    return [w for _ in range(count) for d in dsts for w in flow_send(buf, d, message_elements)]


def push_to_hub(buf, message_elements, gap_s=0.0, count=1):
    """A client's `count` flows of `buf` into the hub (send_flows to rank 0)."""
    return send_flows(buf, (0,), message_elements, gap_s, count)


def flows_received(flows, t0):
    """Each flow's completion time from t0 (its last message's: one connection delivers in order), then waits for
    the rest of its messages (a Gloo work is waited for once: a second wait blocks)."""
    times = completion_times([f[-1] for f in flows], t0)
    wait_all([w for f in flows for w in f[:-1]])
    return times


def incast_mixed(rank, n, bufs, group, message_elements=0):
    """Clients 1..n-1 isend to the hub while the hub isends to client n (the hub times the incoming flows, client n
    its recv); then, after another barrier, the hub sends to client n alone. The flow to client n goes as messages
    of `message_elements` floats back to back (0: one message)."""
    dist.barrier(group=group)
    t0 = now()
    times = []
    if rank == 0:
        reverse = flow_send(bufs["out"], n, message_elements)
        times = completion_times([dist.irecv(bufs["in"][c - 1], src=c) for c in range(1, n)], t0)
        wait_all(reverse)
    elif rank < n:
        dist.isend(bufs["own"], dst=0).wait()
    else:
        wait_all(flow_recv(bufs["own"], 0, message_elements))
        times = [now() - t0]
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        wait_all(flow_send(bufs["out"], n, message_elements))
    elif rank == n:
        wait_all(flow_recv(bufs["own"], 0, message_elements))
        times.append(now() - t0)
    return times


def outcast_mixed(rank, n, bufs, group, message_elements=0):
    """incast-mixed the other way: the hub isends to clients 1..n-1 while client n sends to the hub (each client
    times its recv, the hub the incoming flow); then, after another barrier, client n sends to the hub alone. Does
    traffic out of the hub slow a flow into it (its ACKs leave through the hub's own queue), as traffic into the hub
    slows a flow out of it (incast-mixed)?"""
    dist.barrier(group=group)
    t0 = now()
    times = []
    if rank == 0:
        outs = [dist.isend(bufs["out"], dst=c) for c in range(1, n)]
        times = flows_received([flow_recv(bufs["in"][n - 1], n, message_elements)], t0)
        wait_all(outs)
    elif rank < n:
        dist.recv(bufs["own"], src=0)
        times = [now() - t0]
    else:
        wait_all(flow_send(bufs["own"], 0, message_elements))
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        wait_all(flow_recv(bufs["in"][n - 1], n, message_elements))
        times.append(now() - t0)
    elif rank == n:
        wait_all(flow_send(bufs["own"], 0, message_elements))
    return times


def incast_half(rank, n, bufs, group):
    """Clients 1..n-m isend to the hub while the hub isends to clients n-m+1..n (m = n // 2): both directions of
    the hub's NIC loaded by several flows, as a PS's is in Async-PS (incast-mixed has one flow out). The hub times
    the incoming flows, each receiving client its own."""
    m = n // 2
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        outs = [dist.isend(bufs["out"], dst=c) for c in range(n - m + 1, n + 1)]
        times = completion_times([dist.irecv(bufs["in"][c - 1], src=c) for c in range(1, n - m + 1)], t0)
        wait_all(outs)
        return times
    if rank <= n - m:
        dist.isend(bufs["own"], dst=0).wait()
        return []
    dist.recv(bufs["own"], src=0)
    return [now() - t0]


def incast_duplex(rank, n, bufs, group, message_elements=0, message_gap_s=0.0, hub_gap_s=0.0):
    """Every client isends to the hub while the hub isends to every client: n flows each way through the hub's NIC,
    as a PS's carries in Sync-PS with per-variable reads (pulls of one variable while others' pushes arrive).
    incast-half stops at about N / 2 each way; this reaches N. The hub times the incoming flows, each client the
    flow it receives (into a buffer of its own: its outgoing one is being sent). Each flow goes as messages of
    `message_elements` floats back to back (0: one message), a client's paced `message_gap_s` apart if > 0, the hub's
    `hub_gap_s` apart if > 0."""
    me = message_elements
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        outs = send_flows(bufs["out"], range(1, n + 1), me, hub_gap_s)
        times = flows_received([flow_recv(bufs["in"][c - 1], c, me) for c in range(1, n + 1)], t0)
        wait_all(outs)
        return times
    push = push_to_hub(bufs["own"], me, message_gap_s)
    wait_all(flow_recv(bufs["back"], 0, me))
    mine = now() - t0
    wait_all(push)
    return [mine]


def staggered(rank, n, bufs, group, fraction=0.5, into_hub=True, established=0, late=0, late_alone=True,
              message_elements=0, message_gap_s=0.0, hub_gap_s=0.0):
    """incast-duplex with one direction started late: flows into the hub (into_hub: duplex-late-in, staggered-in)
    join established flows out of it, as Async-PS pushes join a loaded NIC, or flows out (duplex-late-out,
    staggered-out) join established flows in, as per-variable Sync-PS reads join pushes under way. E established
    flows and L late ones (staggered_clients; duplex-late-*: N each), so that one side may be a lone flow: the late
    flows alone (S bytes each; late_alone, staggered-* only: duplex-late-* divide by incast-in/out instead), the
    established ones alone (S each; T the slowest), then, after a barrier, the established ones with 2 x S while the
    late ones start S fraction x T later. The receiver times each flow: the late ones from their start, the
    established ones from the barrier (what the late flows cost them). incast-duplex starts both directions at once
    and its flows in fall into a slow state about 3 repeats in 5: do late ones too? Each flow goes as messages of
    `message_elements` floats back to back (0: one message), the clients' flows into the hub paced `message_gap_s`
    apart if > 0, the hub's flows out `hub_gap_s` apart if > 0 (alone as well as beside the flows in)."""
    me = message_elements
    est, lt = staggered_clients(n, established, late)
    hub_sends_late = not into_hub

    def alone(clients, hub_sends):
        """Each of `clients` exchanges S bytes with the hub alone; the receivers' times (the hub: one per client)."""
        dist.barrier(group=group)
        t0 = now()
        if rank == 0:
            if hub_sends:
                wait_all(send_flows(bufs["out"], clients, me, hub_gap_s))
                return []
            return flows_received([flow_recv(bufs["in"][c - 1], c, me) for c in clients], t0)
        if rank not in clients:
            return []
        if hub_sends:
            wait_all(flow_recv(bufs["back"], 0, me))
            return [now() - t0]
        wait_all(push_to_hub(bufs["own"], me, message_gap_s))
        return []

    mine = alone(lt, hub_sends_late) if late_alone else []
    est_alone = alone(est, not hub_sends_late)
    slowest = torch.tensor([max(est_alone) if est_alone else 0.0], dtype=torch.float64)
    dist.all_reduce(slowest, op=dist.ReduceOp.MAX, group=group)
    delay = fraction * float(slowest.item())
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        if into_hub:  # established out, late in
            outs = send_flows(bufs["out"], est, me, hub_gap_s, count=2)
            ends = flows_received([flow_recv(bufs["in"][c - 1], c, me) for c in lt], t0)
            wait_all(outs)
            return mine + [end - delay for end in ends]
        firsts = [w for c in est for w in flow_recv(bufs["in"][c - 1], c, me)]
        seconds = [flow_recv(bufs["in"][c - 1], c, me) for c in est]
        sleep_until(t0 + delay)
        outs = send_flows(bufs["out"], lt, me, hub_gap_s)
        established_ends = flows_received(seconds, t0)
        wait_all(firsts + outs)
        return est_alone + established_ends
    works, late_time, est_time = [], [], []
    if into_hub:
        first = flow_recv(bufs["back"], 0, me) if rank in est else None
        if rank in lt:
            sleep_until(t0 + delay)
            works = push_to_hub(bufs["own"], me, message_gap_s)
        if first is not None:
            wait_all(first)
            wait_all(flow_recv(bufs["back"], 0, me))
            est_time = [now() - t0]
        wait_all(works)
        return est_alone + est_time
    if rank in est:
        works = push_to_hub(bufs["own"], me, message_gap_s, count=2)
    if rank in lt:
        wait_all(flow_recv(bufs["back"], 0, me))
        late_time = [now() - t0 - delay]
    wait_all(works)
    return mine + late_time


def shared_alone(alone_s, src, group):
    """Every rank of the group gets the time of the flow alone that rank `src` measured."""
    t = torch.tensor([alone_s], dtype=torch.float64)
    dist.broadcast(t, src=src, group=group)
    return float(t.item())


def sleep_until(t):
    left = t - now()
    if left > 0:
        time.sleep(left)


def late_in(rank, n, bufs, group, fraction=0.5):
    """Client 1 sends S bytes to the hub alone (time T); then, after a barrier, client 1 sends again and client c
    starts c - 1 delays of fraction x T later. The hub times each flow from its own start: does a flow that has
    the link keep it when another joins (TCP's congestion windows), or share it at once (max-min)?"""
    dist.barrier(group=group)
    t0 = now()
    alone = 0.0
    if rank == 0:
        dist.recv(bufs["in"][0], src=1)
        alone = now() - t0
    elif rank == 1:
        dist.send(bufs["own"], dst=0)
    delay = fraction * shared_alone(alone, 0, group)
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        ends = completion_times([dist.irecv(bufs["in"][c - 1], src=c) for c in range(1, n + 1)], t0)
        return [alone] + [t - (c - 1) * delay for c, t in enumerate(ends, start=1)]
    sleep_until(t0 + (rank - 1) * delay)
    dist.isend(bufs["own"], dst=0).wait()
    return []


def late_out(rank, n, bufs, group, fraction=0.5):
    """late-in out of the hub: the hub sends S bytes to client 1 alone (client 1 times it: T), then to client 1
    again and to client c c - 1 delays of fraction x T later; each client times its flow from its own start."""
    dist.barrier(group=group)
    t0 = now()
    alone = 0.0
    if rank == 0:
        dist.send(bufs["out"], dst=1)
    elif rank == 1:
        dist.recv(bufs["own"], src=0)
        alone = now() - t0
    delay = fraction * shared_alone(alone, 1, group)
    dist.barrier(group=group)
    t0 = now()
    if rank == 0:
        works = []
        for c in range(1, n + 1):
            sleep_until(t0 + (c - 1) * delay)
            works.append(dist.isend(bufs["out"], dst=c))
        wait_all(works)
        return []
    dist.recv(bufs["own"], src=0)
    mine = now() - t0 - (rank - 1) * delay
    return [alone, mine] if rank == 1 else [mine]


INCAST = {"incast-in": incast_in, "incast-out": incast_out, "incast-mixed": incast_mixed, "incast-half": incast_half,
          "incast-duplex": incast_duplex,
          "duplex-late-in": functools.partial(staggered, into_hub=True, late_alone=False),
          "duplex-late-out": functools.partial(staggered, into_hub=False, late_alone=False),
          "outcast-mixed": outcast_mixed, "staggered-in": staggered, "staggered-out": staggered,
          "late-in": late_in, "late-out": late_out}
# A client receives while it sends: a second buffer.
DUPLEX = ("incast-duplex",) + DUPLEX_LATE + STAGGERED
LATE = ("late-in", "late-out")
# Late flows start --late-fraction of a time alone later.
DELAYED = LATE + DUPLEX_LATE + STAGGERED
MIXED = ("incast-mixed", "outcast-mixed")  # a lone flow beside N-1 the other way, then alone
# Whose every flow --flow-message splits into messages.
FLOW_MESSAGES = ("incast-in", "incast-out") + DUPLEX
# Rows named pattern-role.
BOTH_WAYS = MIXED + ("incast-half", "incast-duplex") + DUPLEX_LATE + STAGGERED


def incast_slots(pattern, rank, n, established=0, late=0):
    """The columns of incast_flows(pattern, n) that `rank` times: each flow's receiver's, the hub for a flow into it
    and the client for every other (out, reverse, alone), in column order (each pattern returns its times so)."""
    return [col for col, (role, client) in enumerate(incast_flows(pattern, n, established, late))
            if rank == (0 if role in INTO_HUB else client)]


def incast_run(args, pattern, n, size, bufs, group):
    """warmup + repeats of one pattern on ranks 0..n; returns every measured repeat's flow times (on every rank
    of the group: an all_reduce of each rank's own columns)."""
    rank = dist.get_rank()
    view = {"in": [b[:plan.elements(size)] for b in bufs["in"]], "out": bufs["out"][:plan.elements(size)],
            "own": bufs["own"][:plan.elements(size)], "back": bufs["back"][:plan.elements(size)]}
    counts = (args.established_flows, args.late_flows) if pattern in STAGGERED else (0, 0)
    cols, slots = len(incast_flows(pattern, n, *counts)), incast_slots(pattern, rank, n, *counts)
    table = torch.zeros(args.repeats, cols, dtype=torch.float64)
    for i in range(args.warmup + args.repeats):
        extra = {"fraction": args.late_fraction} if pattern in DELAYED else {}
        if pattern in MIXED:
            extra = {"message_elements": plan.elements(args.lone_message_size) if args.lone_message_size else 0}
        if pattern in FLOW_MESSAGES:
            extra["message_elements"] = (args.flow_tensor_elements or
                                         (plan.elements(args.flow_message_size) if args.flow_message_size else 0))
        if pattern == "incast-out":
            extra.update({flag: True for flag in OUT_FLAGS if getattr(args, flag, False)})
        if pattern in DUPLEX:
            extra["message_gap_s"] = args.message_gap_s
            extra["hub_gap_s"] = args.hub_message_gap_s
        if pattern in STAGGERED:
            extra.update(into_hub=pattern == "staggered-in", established=args.established_flows,
                         late=args.late_flows)
        times = INCAST[pattern](rank, n, view, group, **extra)
        if i >= args.warmup:
            for col, t in zip(slots, times):
                table[i - args.warmup, col] = t
    dist.all_reduce(table, group=group)
    return table.tolist()


def incast_record(args, out, flows_path, pattern, n, size, table):
    """Rank 0: the repeats' JSON lines, the CSV rows (one per role) and a summary (within-repeat spreads)."""
    counts = (args.established_flows, args.late_flows) if pattern in STAGGERED else (0, 0)
    flows = incast_flows(pattern, n, *counts)
    with open(flows_path, "a", encoding="utf-8") as f:
        for r, times in enumerate(table):
            rec = {"pattern": pattern, "clients": n, "size_bytes": size, "repeat": r, "rate": rate_label(args),
                   "times_s": times, "roles": [x[0] for x in flows], "ranks": [x[1] for x in flows]}
            if pattern in DELAYED:
                rec["late_fraction"] = args.late_fraction
            if pattern in STAGGERED:
                est, lt = staggered_clients(n, *counts)
                rec["established_flows"], rec["late_flows"] = len(est), len(lt)
            if pattern in MIXED and args.lone_message_size:
                rec["lone_message_bytes"] = args.lone_message_size
            if pattern in FLOW_MESSAGES and args.flow_message_size:
                rec["flow_message_bytes"] = args.flow_message_size
            if pattern in FLOW_MESSAGES and args.flow_tensor_elements:
                rec["flow_tensors"] = {"workload": args.flow_tensors, "messages": len(args.flow_tensor_elements)}
            if pattern == "incast-out":
                rec.update({flag: True for flag in OUT_FLAGS if getattr(args, flag, False)})
            if pattern in DUPLEX and args.message_gap_s:
                rec["message_gap_s"] = args.message_gap_s
            if pattern in DUPLEX and args.hub_message_gap_s:
                rec["hub_message_gap_s"] = args.hub_message_gap_s
            f.write(json.dumps(rec) + "\n")
    summary = []
    for role in dict.fromkeys(x[0] for x in flows):
        cols = [i for i, x in enumerate(flows) if x[0] == role]
        st = flow_stats([[times[i] for i in cols] for times in table])
        if pattern in LATE:
            op = f"{pattern}-{role.split('-')[0]}"
        else:
            op = f"{pattern}-{role}" if pattern in BOTH_WAYS else pattern
        med = out.row(op, n + 1, size, st["times"], args.warmup, repeats=len(table))
        summary.append({"op": op, "clients": n, "flows": len(cols), "size_bytes": size, "time_median_s": med,
                        "spread_median": st["spread_median"], "spread_max": st["spread_max"]})
    if pattern in MIXED:
        ratios = paired_ratios([t[n - 1] for t in table], [t[n] for t in table])
        summary[-2]["reverse_over_alone_median"] = plan.median(ratios)
    if pattern in LATE:
        first = summary[-2]  # roles alone, first, late
        first["first_over_alone_median"] = plan.median(paired_ratios([t[1] for t in table], [t[0] for t in table]))
        if n == 2:
            shares = [established_share(t[1], t[0], args.late_fraction) for t in table]
            first["established_share_median"] = plan.median([a for a in shares if a is not None])
    for s in summary:
        extra = f"  reverse/alone {s['reverse_over_alone_median']:.3f}" if "reverse_over_alone_median" in s else ""
        if "first_over_alone_median" in s:
            extra += f"  first/alone {s['first_over_alone_median']:.3f}"
        if "established_share_median" in s:
            extra += f"  established share {s['established_share_median']:.3f}"
        print(f"{s['op']:<22} N={n} {size:>10} B: median flow {s['time_median_s'] * 1e3:9.2f} ms, spread in a "
              f"repeat median {s['spread_median']:.3f} max {s['spread_max']:.3f}{extra}", flush=True)
    return summary


def tcp_counters():
    """This namespace's TCP counters (/proc/net/snmp): segments sent and retransmitted."""
    lines = [l.split() for l in (read_text("/proc/net/snmp") or "").splitlines() if l.startswith("Tcp:")]
    if len(lines) < 2:
        return {}
    values = dict(zip(lines[0][1:], lines[1][1:]))
    return {k: int(values[k]) for k in ("OutSegs", "RetransSegs") if k in values}


def incast_buffers(rank, clients, size, duplex):
    """The hub's buffers (one per client in, one out) or a client's (its own out; `back` in, for DUPLEX patterns)."""
    if rank == 0:
        return {"in": [torch.zeros(plan.elements(size), dtype=torch.float32) for _ in range(clients)],
                "out": torch.zeros(plan.elements(size), dtype=torch.float32), "own": torch.zeros(1),
                "back": torch.zeros(1)}
    return {"in": [], "out": torch.zeros(1), "own": torch.zeros(plan.elements(size), dtype=torch.float32),
            "back": torch.zeros(plan.elements(size) if duplex else 1, dtype=torch.float32)}


def client_counts(nodes, patterns, world):
    """--nodes as client counts N (default 2..world - 1). N = 1 only if every pattern is a duplex one: one client
    then sends to the hub and receives from it over its one connection (a Sync-PS with one worker)."""
    lowest = 1 if all(p in DUPLEX for p in patterns) else 2
    try:
        ns = [int(k) for k in nodes.split(",")] if nodes else list(range(2, world))
    except ValueError:
        raise MeasureError(f"--nodes {nodes}: comma-separated client counts") from None
    if any(k < lowest or k > world - 1 for k in ns):
        raise MeasureError(f"--nodes {nodes}: clients, each in {lowest}..{world - 1} (the world size - 1"
                           f"{'' if lowest == 1 else '; 1 only with duplex patterns alone'})")
    return ns


def message_sizes(args):
    """--lone-message's and --flow-message's bytes (0: one message per flow); each needs one of its patterns."""
    sizes = []
    for option, text, kinds in (("--lone-message", args.lone_message, MIXED),
                                ("--flow-message", args.flow_message, FLOW_MESSAGES)):
        size = size_arg(text) if text else 0
        if size and not any(p in kinds for p in args.patterns.split(",")):
            raise MeasureError(f"{option} {text}: applies to {', '.join(kinds)}, none of --patterns {args.patterns}")
        sizes.append(size)
    return tuple(sizes)


def flow_tensors(args):
    """--flow-tensors WORKLOAD: every flow of FLOW_MESSAGES is the workload's tensors in forward order, one message
    each, as a PS sends a worker its shard (train.py); returns their float counts and the flow's bytes (their sum),
    which replaces --sizes; ([], 0) without it."""
    if not getattr(args, "flow_tensors", ""):
        return [], 0
    if args.flow_message:
        raise MeasureError(f"--flow-tensors {args.flow_tensors}: not with --flow-message {args.flow_message} (one "
                           "way to cut a flow)")
    if not any(p in FLOW_MESSAGES for p in args.patterns.split(",")):
        raise MeasureError(f"--flow-tensors {args.flow_tensors}: applies to {', '.join(FLOW_MESSAGES)}, none of "
                           f"--patterns {args.patterns}")
    if args.sizes != SIZES_DEFAULT:
        raise MeasureError(f"--flow-tensors {args.flow_tensors}: the flow is the model's tensors, not --sizes "
                           f"{args.sizes}")
    try:
        wl = plan.parse_workload(args.flow_tensors)
    except (OSError, plan.WorkloadError) as e:
        raise MeasureError(f"--flow-tensors {args.flow_tensors}: {e}") from None
    counts = [plan.elements(t.bytes) for t in wl.tensors]
    return counts, 4 * sum(counts)


OUT_FLAGS = ("hub_recvs", "early_recvs")  # incast_out's options (--hub-recvs, --early-recvs): incast-out only


def out_flag(args, flag):
    """Whether incast-out's option `flag` (one of OUT_FLAGS) is given; refused without incast-out in --patterns."""
    if not getattr(args, flag, False):
        return False
    if "incast-out" not in args.patterns.split(","):
        raise MeasureError(f"--{flag.replace('_', '-')}: applies to incast-out, not in --patterns {args.patterns}")
    return True


def check_early_recvs(args):
    """--early-recvs: incast-out's clients post their receives before the barrier (incast_out)."""
    return out_flag(args, "early_recvs")


def check_hub_recvs(args):
    """--hub-recvs: incast-out's hub posts a client's receives before its sends (incast_out); it needs a flow cut into
    messages (--flow-tensors or --flow-message), whose count it posts."""
    if not out_flag(args, "hub_recvs"):
        return False
    if not (args.flow_message or getattr(args, "flow_tensors", "")):
        raise MeasureError("--hub-recvs: posts one receive per message of a flow; give --flow-tensors or "
                           "--flow-message")
    return True


def message_gap(args, option="--message-gap", whose="a client's"):
    """--message-gap (--hub-message-gap: option, whose) in seconds: it paces the messages of --flow-message, which
    it needs; 0 or more."""
    gap_ms = getattr(args, option[2:].replace("-", "_"))
    if gap_ms < 0 or gap_ms != gap_ms:
        raise MeasureError(f"{option} {gap_ms}: milliseconds between {whose} messages, 0 or more")
    if gap_ms and not (args.flow_message or getattr(args, "flow_tensors", "")):
        raise MeasureError(f"{option} {gap_ms}: paces the messages of --flow-message, which is not given")
    return gap_ms / 1e3


def cmd_incast(args):
    """Many-to-one and one-to-many transfers through the hub's NIC (rank 0; clients 1..N), for every N in --nodes
    and size: does TCP share one host's link fairly over a short transfer, and does traffic into the hub slow a
    transfer out of it? Async-PS training runs faster than a fluid max-min sharing predicts; these are the two
    network effects suspected (docs/measure.md). Patterns, each after a barrier of ranks 0..N: incast-in (every
    client sends S bytes to the hub), incast-out (the hub sends S bytes to every client), incast-mixed (clients
    1..N-1 send to the hub while the hub sends to client N; and that reverse flow alone), incast-half (clients
    1..N-M send to the hub while the hub sends to the other M = N // 2), incast-duplex (every client sends to the
    hub while the hub sends to every client: N flows each way), duplex-late-in (the same with the clients' flows
    started --late-fraction x the flows out's time alone after them), duplex-late-out (the hub's flows out started
    so beside the clients' established flows in), outcast-mixed (the hub sends to clients
    1..N-1 while client N sends to it; and that flow alone), late-in and late-out (client 1's flow
    alone, then again with client c's starting c - 1 delays of --late-fraction x its time alone later: does the
    flow that has the link keep it?). A flow's time runs from the barrier's end (plus its delay) to its completion
    at the receiver."""
    rank, world = dist.get_rank(), dist.get_world_size()
    if world < 3:
        raise MeasureError("incast needs at least 3 ranks (the hub and 2 clients)")
    unknown = [p for p in args.patterns.split(",") if p not in INCAST]
    if unknown:
        raise MeasureError(f"--patterns {args.patterns}: {unknown[0]} is none of {', '.join(INCAST)}")
    ns = client_counts(args.nodes, args.patterns.split(","), world)
    sizes = [size_arg(s) for s in args.sizes.split(",")]
    args.lone_message_size, args.flow_message_size = message_sizes(args)
    args.flow_tensor_elements, tensor_bytes = flow_tensors(args)
    if tensor_bytes:
        sizes = [tensor_bytes]
    args.hub_recvs = check_hub_recvs(args)
    args.early_recvs = check_early_recvs(args)
    args.message_gap_s = message_gap(args)
    args.hub_message_gap_s = message_gap(args, "--hub-message-gap", "the hub's")
    for option in ("established_flows", "late_flows"):
        if getattr(args, option, 0) < 0:
            raise MeasureError(f"--{option.replace('_', '-')} {getattr(args, option)}: a number of flows (0: N)")
    if not 0 < args.late_fraction < 1:
        raise MeasureError(f"--late-fraction {args.late_fraction}: a fraction of the flow's time alone, in (0, 1)")
    check_out(args)
    infos = gather_infos()
    counters = [None] * world
    dist.all_gather_object(counters, tcp_counters())
    groups = {k: dist.new_group(list(range(k + 1))) for k in sorted(set(ns))}  # every rank creates every group
    flows_path = args.out + ".flows.jsonl"
    out = CsvOut(args.out, csv_meta(args, infos)) if rank == 0 else None
    if rank == 0:
        open(flows_path, "w", encoding="utf-8").close()
    bufs = incast_buffers(rank, max(ns), max(sizes), any(p in DUPLEX for p in args.patterns.split(",")))
    summary = []
    for n in ns:
        if rank <= n:
            for size in sizes:
                for pattern in args.patterns.split(","):
                    table = incast_run(args, pattern, n, size, bufs, groups[n])
                    if rank == 0:
                        summary += incast_record(args, out, flows_path, pattern, n, size, table)
        dist.barrier()
    after = [None] * world  # the uplinks' tc counters after the run (the switch's downlinks: emulate status)
    dist.all_gather_object(after, {"tcp": tcp_counters(), "tc_qdisc": local_info().get("tc_qdisc")})
    tcp = [{"rank": r, "tcp_before": b, "tcp_after": a["tcp"], "tc_qdisc_after": a["tc_qdisc"]}
           for r, (b, a) in enumerate(zip(counters, after))]
    write_sidecar(args.out, args, infos, "incast", {"flows": flows_path, "summary": summary, "after": tcp})
