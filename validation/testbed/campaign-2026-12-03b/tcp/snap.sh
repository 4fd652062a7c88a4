#!/bin/sh
# TCP counters and qdisc drops of every emulated host and the switch.
for i in 0 1 2 3 4 5 6 7; do
  ns=sgdsim-h$i
  ip netns exec $ns sh -c 'awk "/^Tcp:/{getline;print \"Tcp\",\$0}" /proc/net/snmp; awk "/^TcpExt:/{if(!h){h=\$0;next} print \"H\",h; print \"V\",\$0}" /proc/net/netstat' | sed "s/^/h$i /"
  ip netns exec $ns tc -s qdisc show dev eth0 | grep -o "dropped [0-9]*" | sed "s/^/h$i up /"
done
ip netns exec sgdsim-sw tc -s qdisc show | grep -E "^qdisc|dropped" | sed "s/^/sw /"
