print("latsim")
