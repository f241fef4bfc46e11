module example.com/disttest

go 1.19
