#!/usr/bin/env python3
"""Sums up an FFTX_TRACE_COPIES file (src/exec/cuda/host_copies.rs): for the last two runs in
it, when the gathers, the DMAs in, the DMAs out and the scatters began and ended (ms from the
run's first event), the copy threads' busy time, and the issuing thread's waits.
  python3 tools/trace-copies.py FILE
"""
import sys, collections
f=sys.argv[1]
runs=[[]]
for l in open(f):
    l=l.strip()
    if l=='run-end': runs.append([]); continue
    if not l: continue
    t,th,what,a,b=l.split(',')
    runs[-1].append((int(t),th,what,int(a),int(b)))
runs=[r for r in runs if r]
print(f, len(runs),"runs")
for r in runs[-2:]:
    t0=r[0][0]
    ev=lambda w:[x for x in r if x[2]==w]
    di=ev('dma-in'); do=ev('dma-out'); g=ev('gather'); c=ev('copied'); s=ev('scatter'); dd=ev('dma-done'); gs=ev('gather-submit')
    rel=lambda x:(x-t0)/1000
    print(" run span %.2f ms"%rel(r[-1][0]))
    print(" gathers submitted %d first %.2f last %.2f"%(len(gs),rel(gs[0][0]),rel(gs[-1][0])))
    print(" dma-in issued %d: first %.2f last %.2f"%(len(di),rel(di[0][0]),rel(di[-1][0])))
    print(" dma-out blocks %d: first %.2f last %.2f"%(len(do),rel(do[0][0]),rel(do[-1][0])))
    if dd: print(" dma-done (scatter side) first %.2f last %.2f"%(rel(dd[0][0]),rel(dd[-1][0])))
    # copy parts: gather copies vs scatter copies
    gjobs=set(x[3] for x in g); 
    gc=[x for x in c if x[3] in gjobs]; sc=[x for x in c if x[3] not in gjobs]
    if gc: print(" gather copies end first %.2f last %.2f"%(rel(gc[0][0]),rel(gc[-1][0])))
    if sc: print(" scatter copies end first %.2f last %.2f"%(rel(sc[0][0]),rel(sc[-1][0])))
    # busy time of copy threads
    busy=collections.defaultdict(float); start={}
    for x in r:
        if x[2] in('gather','scatter'): start[(x[1])]=x[0]
        if x[2]=='copied' and x[1] in start: busy[x[1]]+= (x[0]-start.pop(x[1]))/1000
    print(" copy threads %d, busy ms: %s"%(len(busy), ' '.join('%.1f'%v for v in sorted(busy.values()))))
    waits=ev('wait'); wd=ev('waited')
    tw=sum((b[0]-a[0]) for a,b in zip(waits,wd))/1000
    print(" issuing thread waits: %d, %.2f ms"%(len(waits),tw))
    # dma-in gaps
    gaps=[(di[i+1][0]-di[i][0])/1000 for i in range(len(di)-1)]
    if gaps: print(" dma-in issue interval: mean %.3f max %.3f ms"%(sum(gaps)/len(gaps),max(gaps)))
