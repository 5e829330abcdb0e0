"""hands"""
