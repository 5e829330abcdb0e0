"""census"""
