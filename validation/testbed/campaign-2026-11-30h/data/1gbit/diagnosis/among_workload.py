"""A workload whose per-tensor ring, without compute, launches its all-reduces as `measure.py allreduce --among`
does: one small call, the large one, then N - 1 small ones (backward order: the last layer's tensor first).

    python3 among_workload.py SMALL_BYTES LARGE_BYTES N > W.xml
"""
import sys

small, big, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
out = ['<?xml version="1.0"?>',
       '<workload name="among" batch="1" device="K80" reference_speed="4.37Tf" ps_update="0us">']
for i in range(n - 1):
    out.append(f'  <layer name="s{i}" fwd="1us" bwd="1us"><tensor name="s{i}.w" size="{small}B"/></layer>')
out.append(f'  <layer name="big" fwd="1us" bwd="1us"><tensor name="big.w" size="{big}B"/></layer>')
out.append(f'  <layer name="first" fwd="1us" bwd="1us"><tensor name="first.w" size="{small}B"/></layer>')
out.append('</workload>')
print('\n'.join(out))
