// TouchModel
