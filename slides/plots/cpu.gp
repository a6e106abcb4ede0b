# SPDX-License-Identifier: MIT
# cpu.gp - CPU utilization of client and server during 64-byte runs
# (data/cpu.dat), and of the agent while its client is paused
# (data/idle.dat).
load "plots/style.gp"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:150]
set ylabel "% of one CPU"
set xrange [-0.6:2.6]
set key top right
set multiplot layout 1,2
set title "during a run"
plot "data/cpu.dat" using 3:xticlabels(2) title "client", \
     "" using 4 title "server"
set title "agent, client paused"
unset ylabel
unset key
plot "data/idle.dat" using 3:xticlabels(2) title "agent" lt 3
unset multiplot
