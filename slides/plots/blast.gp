# SPDX-License-Identifier: MIT
# blast.gp - blast-sr-2's bandwidth against the messages in flight
# (data/blast.dat).
load "plots/style.gp"
set logscale x 2
set xlabel "messages in flight (-b)"
set ylabel "MB/s"
set yrange [0:*]
set xrange [0.8:20]
set xtics (1, 2, 4, 8, 16)
plot "data/blast.dat" using 1:2 with linespoints title "4096-byte messages" lt 2
