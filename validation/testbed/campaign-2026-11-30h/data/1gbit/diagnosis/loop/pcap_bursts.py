"""The TCP payload of the busiest connection of a tcpdump capture, in bursts (packets less than 0.3 ms apart), with
each burst's start (ms from the connection's first packet), its length and the payload bytes each port sent.

    python3 pcap_bursts.py CAPTURE.pcap [MIN_BYTES] > bursts.txt      (needs tcpdump to read the capture)
"""
import subprocess,sys,collections,re
f=sys.argv[1]
out=subprocess.run(["tcpdump","-r",f,"-tt","-n","-S"],capture_output=True,text=True).stdout.splitlines()
pk=[]
for l in out:
    m=re.match(r"(\d+\.\d+) IP (\S+) > (\S+): .*length (\d+)",l)
    if not m: continue
    t,s,d,n=float(m[1]),m[2],m[3].rstrip(':'),int(m[4])
    if n==0: continue
    pk.append((t,s,d,n))
# connection with most bytes
tot=collections.Counter()
for t,s,d,n in pk: tot[tuple(sorted((s,d)))]+=n
print(tot.most_common(4))
conn=tot.most_common(1)[0][0]
# find big bursts: times where bytes > 100KB within 20ms windows
big=[(t,s,n) for t,s,d,n in pk if tuple(sorted((s,d)))==conn]
t0=big[0][0]
# print bursts: sequences separated by >0.3ms gap, with per-direction bytes
bursts=[];cur=None
for t,s,n in big:
    if cur and t-cur['end']<0.0003: cur['end']=t; cur[s]=cur.get(s,0)+n; cur['n']+=1
    else:
        cur={'start':t,'end':t,s:n,'n':1}; bursts.append(cur)
lim=float(sys.argv[2]) if len(sys.argv)>2 else 0
for b in bursts:
    by={k:v for k,v in b.items() if k not in('start','end','n')}
    if sum(by.values())<lim: continue
    print("%9.3f ms dur %6.3f  %s"%((b['start']-t0)*1e3,(b['end']-b['start'])*1e3, " ".join("%s:%d"%(k.split('.')[-1],v) for k,v in by.items())))
