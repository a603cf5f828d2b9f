print("biqli-edge")
