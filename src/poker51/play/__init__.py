"""play"""
