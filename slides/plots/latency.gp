# SPDX-License-Identifier: MIT
# latency.gp - round trips of 64 bytes: median, 99th and 99.9th
# percentiles for each way of waiting (data/latency.dat).
load "plots/style.gp"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "round trip (us), log scale"
set logscale y
set yrange [10:*]
set xrange [-0.6:2.6]
set key outside right top
plot "data/latency.dat" using 4:xticlabels(2) title "median", \
     "" using 5 title "99th percentile", \
     "" using 6 title "99.9th percentile"
